// npm_ring.js: asks the real npm `memcached` client (its HashRing) or memjs which server each
// key goes to.
//
// usage: NODE_PATH=<node_modules> node npm_ring.js memcached|memjs SERVERS_JSON < hexkeys
//   SERVERS_JSON: memcached: the servers argument of `new Memcached(...)` (an array, or an
//                 object of weights); memjs: the list string of `Client.create(...)`
//   stdin:  one key a line, hex-encoded UTF-8 (an empty line is the empty key)
//   stdout: "V <package> <version>", then "K <server index>" per key
//
// No server is contacted: both clients connect on their first command.
'use strict';
const lib = process.argv[2];
const servers = JSON.parse(process.argv[3]);
const keys = require('fs').readFileSync(0, 'latin1').split('\n');
if (keys[keys.length - 1] === '') keys.pop();
const out = [];
if (lib === 'memcached') {
  const Memcached = require('memcached');
  const client = new Memcached(servers);
  out.push('V memcached ' + require('memcached/package.json').version +
           ' hashring ' + require('hashring/package.json').version);
  const names = client.servers;
  for (const hex of keys) {
    const key = Buffer.from(hex, 'hex').toString('utf8');
    // What memcached.multi and memcached.command do: one server takes every key.
    const server = names.length === 1 ? names[0] : client.HashRing.get(key);
    out.push('K ' + names.indexOf(server));
  }
} else if (lib === 'memjs') {
  const memjs = require('memjs');
  const client = memjs.Client.create(servers, { logger: { log() {} } });
  out.push('V memjs ' + require('memjs/package.json').version);
  for (const hex of keys) {
    const key = Buffer.from(hex, 'hex').toString('utf8');
    out.push('K ' + client.servers.indexOf(client.server(key)));
  }
} else {
  throw new Error('usage: node npm_ring.js memcached|memjs SERVERS_JSON');
}
process.stdout.write(out.join('\n') + '\n');
