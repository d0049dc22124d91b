# ruby_ring.rb: asks the real Dalli or redis-rb which server each key goes to.
#
# usage: ruby ruby_ring.rb dalli SERVER...       < hexkeys
#        ruby ruby_ring.rb redis SERVER_URL...   < hexkeys   (redis-rb on the load path)
#   stdin:  one key a line, hex-encoded UTF-8 (an empty line is the empty key)
#   stdout: "V <library> <version>", then "K <server index>" per key ("K -" where the library
#           refuses the key)
#
# Nothing is contacted. Dalli: Dalli::Ring is built from Dalli::Protocol::Binary servers (which
# connect lazily), and each key goes through Dalli::KeyManager#validate_key (the long-key
# digest) and the ring's own private server_for_hash_key(hash_for(key)): server_for_key would
# also check that the server is alive. redis-rb: Redis::Distributed#node_for (Redis.new connects
# lazily), the node's index in Redis::Distributed#nodes.
lib = ARGV.shift
servers = ARGV

def keys
  $stdin.each_line.map { |line| [line.chomp].pack("H*").force_encoding(Encoding::UTF_8) }
end

case lib
when "dalli"
  require "dalli"
  objs = servers.map { |s| Dalli::Protocol::Binary.new(s) }
  ring = Dalli::Ring.new(objs, {})
  manager = Dalli::KeyManager.new({})
  puts "V dalli #{Dalli::VERSION}"
  keys.each do |key|
    begin
      k = manager.validate_key(key)
    rescue ArgumentError
      puts "K -"
      next
    end
    server = ring.continuum ? ring.send(:server_for_hash_key, ring.send(:hash_for, k)) : ring.servers.first
    puts "K #{objs.index(server)}"
  end
when "redis"
  require "redis"
  require "redis/distributed"
  dist = Redis::Distributed.new(servers)
  client = defined?(RedisClient::VERSION) ? " over redis-client #{RedisClient::VERSION}" : ""
  puts "V redis-rb #{Redis::VERSION}#{client}"
  dist.nodes.each { |n| puts "N #{n.id}" }
  keys.each do |key|
    node = dist.node_for(key)
    puts "K #{dist.nodes.index(node)}"
  end
else
  abort "usage: ruby_ring.rb dalli|redis SERVER..."
end
