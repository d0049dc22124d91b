//! Errors with kinds: each refusal comes back as the kind that names what was refused (the
//! option and its range, the node, the line), with the code and message it has always had;
//! and the codes are the `.d.ts`'s `ErrorCode`.

use ringlab::Error;
use std::path::PathBuf;

#[test]
fn the_typescript_error_codes_are_the_engines() {
    let dts = std::fs::read_to_string(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("types/ringlab.d.ts")).unwrap();
    let union = dts.split("export type ErrorCode =").nth(1).unwrap().split(';').next().unwrap();
    let mut typed: Vec<&str> = union.split('|').map(|c| c.trim().trim_matches('"')).filter(|c| !c.is_empty()).collect();
    let mut codes = Error::CODES.to_vec();
    typed.sort_unstable();
    codes.sort_unstable();
    assert_eq!(typed, codes, "ErrorCode in types/ringlab.d.ts against Error::CODES");
}
