// A tutorial's weighted ring in Go: SHA-256 of "node#i" for i < replicas × weight, the first
// 4 digest bytes big-endian, a sorted slice, sort.Search (first >=), wrapping; a map from
// position to node: the later Add of an equal position wins, and Remove deletes each of the
// node's positions, whoever holds it.
//
// Commands on stdin as in go_fnv.go; "add NAME W" adds with weight W (a whole number).
package main

import (
	"bufio"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"os"
	"slices"
	"sort"
	"strconv"
	"strings"
)

type Ring struct {
	replicas int
	weights  map[string]int
	keys     []uint32
	owners   map[uint32]string
}

func New(replicas int) *Ring {
	return &Ring{replicas: replicas, weights: map[string]int{}, owners: map[uint32]string{}}
}

func hash(s string) uint32 {
	sum := sha256.Sum256([]byte(s))
	return binary.BigEndian.Uint32(sum[:4])
}

func (r *Ring) Add(node string, weight int) {
	r.weights[node] = weight
	for i := 0; i < r.replicas*weight; i++ {
		h := hash(node + "#" + strconv.Itoa(i))
		if _, ok := r.owners[h]; !ok {
			r.keys = append(r.keys, h)
		}
		r.owners[h] = node
	}
	slices.Sort(r.keys)
}

func (r *Ring) Remove(node string) {
	for i := 0; i < r.replicas*r.weights[node]; i++ {
		delete(r.owners, hash(node+"#"+strconv.Itoa(i)))
	}
	delete(r.weights, node)
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
			w, _ := strconv.Atoi(f[2])
			ring.Add(arg(f[1]), w)
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
