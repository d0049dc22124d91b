//! The engine's layers import downwards only (engine → session → binding), so no module
//! circle can creep back in: each lower module's code (comments aside) names no module above it.

const LOWER: [&str; 11] =
    ["node", "ring", "order", "btree", "points", "hash", "limits", "keys", "analysis", "migration", "theme"];
const ABOVE: [&str; 6] = ["algo", "import", "session", "cost", "charts", "web"];

#[test]
fn lower_modules_name_nothing_above_them() {
    for module in LOWER {
        let path = format!("{}/src/{module}.rs", env!("CARGO_MANIFEST_DIR"));
        let source = std::fs::read_to_string(&path).unwrap();
        for (n, line) in source.lines().enumerate() {
            let code = line.split("//").next().unwrap_or("");
            for above in ABOVE {
                assert!(
                    !code.contains(&format!("crate::{above}")),
                    "{path}:{}: {module} reaches up into {above}: {line}",
                    n + 1
                );
            }
        }
    }
}

#[test]
fn the_engine_and_the_session_never_name_the_binding() {
    for dir in ["algo", "session", "charts"] {
        for entry in std::fs::read_dir(format!("{}/src/{dir}", env!("CARGO_MANIFEST_DIR"))).unwrap() {
            let path = entry.unwrap().path();
            let source = std::fs::read_to_string(&path).unwrap();
            assert!(!source.contains("crate::web") && !source.contains("wasm_bindgen"), "{}", path.display());
        }
    }
    let algo_mod = std::fs::read_to_string(format!("{}/src/algo/mod.rs", env!("CARGO_MANIFEST_DIR"))).unwrap();
    assert!(!algo_mod.contains("crate::session"), "algo does not know the session");
}

#[test]
fn the_algorithms_never_name_the_import_layer_above_them() {
    // The import door reads text and asks the algorithms' files to build.
    for entry in std::fs::read_dir(format!("{}/src/algo", env!("CARGO_MANIFEST_DIR"))).unwrap() {
        let path = entry.unwrap().path();
        let source = std::fs::read_to_string(&path).unwrap();
        let code: String = source.lines().map(|l| l.split("//").next().unwrap_or("")).collect();
        assert!(!code.contains("crate::import") && !code.contains("crate::session"), "{}", path.display());
    }
}
