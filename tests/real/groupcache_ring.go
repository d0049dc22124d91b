// groupcache_ring: asks groupcache's real consistenthash package which node owns each key.
//
// Built in GOPATH mode against Debian's golang-github-golang-groupcache-dev
// (GOPATH=/usr/share/gocode GO111MODULE=off), no network.
//
// usage: groupcache_ring REPLICAS NODE... < keys
//
//	stdin:  one key a line, hex-encoded (an empty line is the empty key)
//	stdout: the node name for each key, hex-encoded, one a line
package main

import (
	"bufio"
	"encoding/hex"
	"fmt"
	"os"
	"strconv"

	"github.com/golang/groupcache/consistenthash"
)

func main() {
	if len(os.Args) < 3 {
		fmt.Fprintln(os.Stderr, "usage: groupcache_ring REPLICAS NODE... < hexkeys")
		os.Exit(2)
	}
	replicas, err := strconv.Atoi(os.Args[1])
	if err != nil {
		panic(err)
	}
	m := consistenthash.New(replicas, nil) // nil: crc32.ChecksumIEEE
	m.Add(os.Args[2:]...)

	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<20), 1<<20)
	out := bufio.NewWriter(os.Stdout)
	defer out.Flush()
	for in.Scan() {
		key, err := hex.DecodeString(in.Text())
		if err != nil {
			panic(err)
		}
		fmt.Fprintln(out, hex.EncodeToString([]byte(m.Get(string(key)))))
	}
	if err := in.Err(); err != nil {
		panic(err)
	}
}
