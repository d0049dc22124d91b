// A tutorial's ring in Java: a TreeMap<Long, String> keyed by the first 8 MD5 bytes of
// "node#i" as a signed big-endian long; ceilingEntry (first >=), else firstEntry; put
// overwrites (the later node wins) and remove deletes the position, whoever holds it.
//
// Commands on stdin as in go_fnv.go ("add NAME W": W ignored, this ring has no weights).
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.Map;
import java.util.TreeMap;

public class TreeMapRing {
    private final TreeMap<Long, String> circle = new TreeMap<>();
    private final int replicas;

    TreeMapRing(int replicas) { this.replicas = replicas; }

    static long hash(String text) throws Exception {
        byte[] d = MessageDigest.getInstance("MD5").digest(text.getBytes(StandardCharsets.UTF_8));
        long h = 0;
        for (int i = 0; i < 8; i++) h = (h << 8) | (d[i] & 0xff);
        return h;
    }

    void add(String node) throws Exception {
        for (int i = 0; i < replicas; i++) circle.put(hash(node + "#" + i), node);
    }

    void remove(String node) throws Exception {
        for (int i = 0; i < replicas; i++) circle.remove(hash(node + "#" + i));
    }

    String get(String key) throws Exception {
        if (circle.isEmpty()) return null;
        Map.Entry<Long, String> e = circle.ceilingEntry(hash(key));
        return (e != null ? e : circle.firstEntry()).getValue();
    }

    public static void main(String[] args) throws Exception {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.US_ASCII));
        PrintWriter out = new PrintWriter(System.out);
        HexFormat hex = HexFormat.of();
        TreeMapRing ring = null;
        for (String line; (line = in.readLine()) != null; ) {
            String[] f = line.trim().split(" ");
            String a = f.length > 1 && !f[0].equals("new") ? new String(hex.parseHex(f[1]), StandardCharsets.UTF_8) : "";
            switch (f[0]) {
                case "new" -> ring = new TreeMapRing(Integer.parseInt(f[1]));
                case "add" -> ring.add(a);
                case "remove" -> ring.remove(a);
                case "get" -> {
                    String n = ring.get(a);
                    out.println(n == null ? "-" : hex.formatHex(n.getBytes(StandardCharsets.UTF_8)));
                }
            }
        }
        out.flush();
    }
}
