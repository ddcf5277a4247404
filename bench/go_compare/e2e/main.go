// go_e2e: one public Go ADEXP parser over a file of many messages, as a
// whole process (the Go side of ../../go_compare.sh -e): read the file,
// split it before each line that starts with -TITLE, parse each message.
//
//	go_e2e PARSER FILE
//
// PARSER is one of the names printed by go_e2e without arguments. Prints
// the number of messages and of route points read, so that a parser that
// stopped early is seen.
package main

import (
	"bytes"
	"fmt"
	"io/ioutil"
	"os"
	"sort"

	"goadexp/bad"
	dgood "goadexp/deleplace/good"
	"goadexp/deleplace/lexerparser"
	dnogo "goadexp/deleplace/nogo"
	"goadexp/good"

	log "github.com/sirupsen/logrus"
)

// Each parser, by name: route points of one message.
var parsers = map[string]func([]byte) int{
	"teivah-bad": func(b []byte) int {
		m, _ := bad.ParseAdexpMessage(string(b))
		return len(m.RoutePoints)
	},
	"teivah-good": func(b []byte) int {
		m, _ := good.ParseAdexpMessage(b)
		return len(m.RoutePoints)
	},
	"deleplace-good": func(b []byte) int {
		m, _ := dgood.ParseAdexpMessage(b)
		return len(m.RoutePoints)
	},
	"deleplace-nogo": func(b []byte) int {
		m, _ := dnogo.ParseAdexpMessage(b)
		return len(m.RoutePoints)
	},
	"deleplace-lexerparser": func(b []byte) int {
		m, err := parser.Parse(b)
		if err != nil {
			return 0
		}
		return len(m.RoutePoints)
	},
}

var title = []byte("\n-TITLE")

// The messages of data: each from a line that starts with -TITLE to the
// next, without the line ends between them.
func split(data []byte, each func([]byte)) {
	for len(data) > 0 {
		n := bytes.Index(data, title)
		if n < 0 {
			n = len(data) - 1
		}
		each(bytes.TrimRight(data[:n], "\r\n"))
		data = data[n+1:]
	}
}

func main() {
	if len(os.Args) != 3 || parsers[os.Args[1]] == nil {
		var names []string
		for k := range parsers {
			names = append(names, k)
		}
		sort.Strings(names)
		fmt.Fprintf(os.Stderr, "usage: go_e2e PARSER FILE\nparsers: %v\n", names)
		os.Exit(2)
	}
	log.SetLevel(log.FatalLevel) // as their own benchmarks do
	data, err := ioutil.ReadFile(os.Args[2])
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	parse := parsers[os.Args[1]]
	messages, points := 0, 0
	split(data, func(m []byte) {
		messages++
		points += parse(m)
	})
	fmt.Printf("%d messages, %d route points\n", messages, points)
}
