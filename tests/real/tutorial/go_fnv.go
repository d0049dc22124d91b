// A tutorial's ring in Go: FNV-1a 32 of "node#i", a sorted slice, sort.Search (first >=),
// wrapping; a map from position to node, so the later Add of an equal position wins and a
// removal deletes the position, whoever holds it.
//
// Reads commands on stdin (names and keys hex-encoded): "new R", "add NAME W" (W ignored:
// this ring has no weights), "remove NAME", "get KEY" (prints the owner, hex, or "-").
package main

import (
	"bufio"
	"encoding/hex"
	"fmt"
	"hash/fnv"
	"os"
	"slices"
	"sort"
	"strconv"
	"strings"
)

type Ring struct {
	replicas int
	keys     []uint32
	owners   map[uint32]string
}

func New(replicas int) *Ring { return &Ring{replicas: replicas, owners: map[uint32]string{}} }

func hash(s string) uint32 {
	h := fnv.New32a()
	h.Write([]byte(s))
	return h.Sum32()
}

func (r *Ring) Add(node string) {
	for i := 0; i < r.replicas; i++ {
		h := hash(node + "#" + strconv.Itoa(i))
		if _, ok := r.owners[h]; !ok {
			r.keys = append(r.keys, h)
		}
		r.owners[h] = node
	}
	slices.Sort(r.keys)
}

func (r *Ring) Remove(node string) {
	for i := 0; i < r.replicas; i++ {
		delete(r.owners, hash(node+"#"+strconv.Itoa(i)))
	}
	r.keys = slices.DeleteFunc(r.keys, func(h uint32) bool { _, ok := r.owners[h]; return !ok })
}

func (r *Ring) Get(key string) (string, bool) {
	if len(r.keys) == 0 {
		return "", false
	}
	h := hash(key)
	idx := sort.Search(len(r.keys), func(i int) bool { return r.keys[i] >= h })
	if idx == len(r.keys) {
		idx = 0
	}
	return r.owners[r.keys[idx]], true
}

func main() {
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<20), 1<<20)
	out := bufio.NewWriter(os.Stdout)
	defer out.Flush()
	var ring *Ring
	arg := func(s string) string { b, _ := hex.DecodeString(s); return string(b) }
	for in.Scan() {
		f := strings.Fields(in.Text())
		switch f[0] {
		case "new":
			n, _ := strconv.Atoi(f[1])
			ring = New(n)
		case "add":
			ring.Add(arg(f[1]))
		case "remove":
			ring.Remove(arg(f[1]))
		case "get":
			key := ""
			if len(f) > 1 {
				key = arg(f[1])
			}
			if n, ok := ring.Get(key); ok {
				fmt.Fprintln(out, hex.EncodeToString([]byte(n)))
			} else {
				fmt.Fprintln(out, "-")
			}
		}
	}
}
