// SpyRing: asks the real spymemcached which server each key goes to.
//
// usage: java -cp spymemcached.jar:. SpyRing ketama|native "SERVERS" [WEIGHTS] < hexkeys
//   SERVERS: the list as AddrUtil.getAddresses reads it ("127.0.0.1:11211 127.0.0.2:11211")
//   WEIGHTS: comma-separated weights, one per server: KetamaNodeLocator's weights map
//   stdin:   one key a line, hex-encoded UTF-8 (an empty line is the empty key)
//   stdout:  "V <jar>", "N <ketama label>" per server, then "K <server index>" per key
//
// No server is contacted: the locators are built over MemcachedNode proxies that answer only
// getSocketAddress(), from the addresses AddrUtil parsed.
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.lang.reflect.Proxy;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import net.spy.memcached.AddrUtil;
import net.spy.memcached.ArrayModNodeLocator;
import net.spy.memcached.DefaultHashAlgorithm;
import net.spy.memcached.KetamaNodeKeyFormatter;
import net.spy.memcached.KetamaNodeLocator;
import net.spy.memcached.MemcachedNode;
import net.spy.memcached.NodeLocator;

public class SpyRing {
  public static void main(String[] args) throws Exception {
    List<InetSocketAddress> addrs = AddrUtil.getAddresses(args[1]);
    List<MemcachedNode> nodes = new ArrayList<>();
    for (InetSocketAddress a : addrs) {
      nodes.add((MemcachedNode) Proxy.newProxyInstance(SpyRing.class.getClassLoader(),
          new Class<?>[] {MemcachedNode.class}, (proxy, method, margs) -> {
            switch (method.getName()) {
              case "getSocketAddress": return a;
              case "hashCode": return System.identityHashCode(proxy);
              case "equals": return proxy == margs[0];
              case "toString": return String.valueOf(a);
              default: throw new UnsupportedOperationException(method.getName());
            }
          }));
    }
    NodeLocator locator;
    if (args[0].equals("ketama")) {
      if (args.length > 2) {
        Map<InetSocketAddress, Integer> weights = new HashMap<>();
        String[] w = args[2].split(",");
        for (int i = 0; i < addrs.size(); i++) weights.put(addrs.get(i), Integer.parseInt(w[i]));
        locator = new KetamaNodeLocator(nodes, DefaultHashAlgorithm.KETAMA_HASH,
            KetamaNodeKeyFormatter.Format.SPYMEMCACHED, weights);
      } else {
        locator = new KetamaNodeLocator(nodes, DefaultHashAlgorithm.KETAMA_HASH);
      }
    } else {
      locator = new ArrayModNodeLocator(nodes, DefaultHashAlgorithm.NATIVE_HASH);
    }
    System.out.println("V " + KetamaNodeLocator.class.getProtectionDomain().getCodeSource().getLocation());
    KetamaNodeKeyFormatter labels = new KetamaNodeKeyFormatter();
    for (MemcachedNode n : nodes) System.out.println("N " + labels.getKeyForNode(n, 0));
    BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.US_ASCII));
    StringBuilder out = new StringBuilder();
    for (String line; (line = in.readLine()) != null; ) {
      byte[] b = new byte[line.length() / 2];
      for (int i = 0; i < b.length; i++) b[i] = (byte) Integer.parseInt(line.substring(2 * i, 2 * i + 2), 16);
      String key = new String(b, StandardCharsets.UTF_8);
      out.append("K ").append(nodes.indexOf(locator.getPrimary(key))).append('\n');
    }
    System.out.print(out);
  }
}
