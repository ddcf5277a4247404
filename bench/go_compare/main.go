// go_compare: libadexp against the public Go ADEXP parsers of
// teivah/golang-good-code-bad-code (packages good and bad) and of its fork
// Deleplace/forks-golang-good-code-bad-code (good of branches performance
// and nogo, and the lexer and parser of branch lexerparser), timed by turns
// in one process on the same message (see ../go_compare.sh, which builds
// it with cgo against a build directory's libadexp.a).
//
//	go_compare MESSAGE_FILE [ROUNDS]
//
// Each round parses the message N times with each parser in turn; the
// medians of the rounds' ns per message are printed with the ratios.
// Wall-clock time for all: the good parsers spread a message's lines over
// goroutines, so their CPU time is not one thread's.
package main

/*
#include <stdlib.h>
#include <time.h>
#include "adexp.h"

static adexp_parser *parser;
static adexp_arena arena;
static adexp_msg msg;

static int c_init(void)
{
    parser = adexp_parser_new(NULL, NULL);
    adexp_arena_init(&arena, NULL);
    return parser != NULL;
}

// One parse, for the check of its view against the Go parsers'.
static adexp_view *c_parse(const char *b, size_t n)
{
    adexp_arena_reset(&arena);
    adexp_parser_reset(parser, b, n);
    return adexp_parser_next(parser, &arena, &msg) == ADEXP_OK ? &msg.view : NULL;
}

// reps parses, as bench_parse's main row makes them: ns per message.
static double c_time(const char *b, size_t n, int reps)
{
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (int i = 0; i < reps; i++) {
        adexp_arena_reset(&arena);
        adexp_parser_reset(parser, b, n);
        adexp_parser_next(parser, &arena, &msg);
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    return ((double)(t1.tv_sec - t0.tv_sec) * 1e9 + (double)(t1.tv_nsec - t0.tv_nsec)) / reps;
}
*/
import "C"

import (
	"fmt"
	"io/ioutil"
	"os"
	"runtime"
	"sort"
	"strconv"
	"time"
	"unsafe"

	"goadexp/bad"
	dgood "goadexp/deleplace/good"
	"goadexp/deleplace/lexerparser"
	dnogo "goadexp/deleplace/nogo"
	"goadexp/good"

	log "github.com/sirupsen/logrus"
)

func median(x []float64) float64 {
	y := append([]float64(nil), x...)
	sort.Float64s(y)
	return y[len(y)/2]
}

func slice(s C.adexp_slice) string {
	return C.GoStringN(s.ptr, C.int(s.len))
}

// What the parsers read of a message, as strings to compare.
func fields(title, arcid, adep, ades string, eetfir, speed, points, geo, estdata int) []string {
	return []string{title, arcid, adep, ades, strconv.Itoa(eetfir), strconv.Itoa(speed),
		strconv.Itoa(points), strconv.Itoa(geo), strconv.Itoa(estdata)}
}

var fieldNames = []string{"TITLE", "ARCID", "ADEP", "ADES", "EETFIR count", "SPEED count",
	"RTEPTS points", "GEO count", "ESTDATA count"}

// Every Go parser agrees with libadexp on the fields they read.
func check(v *C.adexp_view, raw []byte) error {
	if v == nil {
		return fmt.Errorf("libadexp did not parse the message")
	}
	c := fields(slice(v.title), slice(v.arcid), slice(v.adep), slice(v.ades), int(v.eetfir.n),
		int(v.speed.n), int(v.n_rtepts), int(v.n_geo), int(v.n_estdata))
	g, _ := good.ParseAdexpMessage(raw)
	b, _ := bad.ParseAdexpMessage(string(raw))
	dg, _ := dgood.ParseAdexpMessage(raw)
	dn, _ := dnogo.ParseAdexpMessage(raw)
	lp, err := parser.Parse(raw)
	if err != nil {
		return fmt.Errorf("Deleplace lexerparser: %v", err)
	}
	others := map[string][]string{
		"teivah good": fields(g.Title, g.Arcid, g.Adep, g.Ades, len(g.Eetfir), len(g.Speed),
			len(g.RoutePoints), len(g.Geo), len(g.Estdata)),
		"teivah bad": fields(b.Title, b.Arcid, b.Adep, b.Ades, len(b.Eetfir), len(b.Speed),
			len(b.RoutePoints), len(b.Geo), len(b.Estdata)),
		"Deleplace good": fields(dg.Title, dg.Arcid, dg.Adep, dg.Ades, len(dg.Eetfir),
			len(dg.Speed), len(dg.RoutePoints), len(dg.Geo), len(dg.Estdata)),
		"Deleplace nogo": fields(dn.Title, dn.Arcid, dn.Adep, dn.Ades, len(dn.Eetfir),
			len(dn.Speed), len(dn.RoutePoints), len(dn.Geo), len(dn.Estdata)),
		"Deleplace lexerparser": fields(lp.Title, lp.Arcid, lp.Adep, lp.Ades, len(lp.Eetfir),
			len(lp.Speed), len(lp.RoutePoints), len(lp.Geo), len(lp.Estdata)),
	}
	for name, o := range others {
		for i := range c {
			if o[i] != c[i] {
				return fmt.Errorf("%s: libadexp %q, %s %q", fieldNames[i], c[i], name, o[i])
			}
		}
	}
	return nil
}

// ns per message of n calls of parse.
func timeGo(n int, parse func()) float64 {
	t0 := time.Now()
	for i := 0; i < n; i++ {
		parse()
	}
	return float64(time.Since(t0).Nanoseconds()) / float64(n)
}

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: go_compare MESSAGE_FILE [ROUNDS]")
		os.Exit(2)
	}
	rounds := 15
	if len(os.Args) > 2 {
		rounds, _ = strconv.Atoi(os.Args[2])
	}
	log.SetLevel(log.FatalLevel) // as their own benchmark does
	raw, err := ioutil.ReadFile(os.Args[1])
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	str := string(raw)
	if C.c_init() == 0 {
		fmt.Fprintln(os.Stderr, "libadexp: out of memory")
		os.Exit(1)
	}
	cb := C.CBytes(raw)
	defer C.free(cb)
	cp, cn := (*C.char)(unsafe.Pointer(cb)), C.size_t(len(raw))

	if err := check(C.c_parse(cp, cn), raw); err != nil {
		fmt.Fprintln(os.Stderr, "the parsers disagree:", err)
		os.Exit(1)
	}

	gos := []struct {
		name  string
		reps  int
		parse func()
	}{
		{"teivah bad (Go: strings, regexp, a goroutine per line)", 200,
			func() { bad.ParseAdexpMessage(str) }},
		{"teivah good (Go: []byte, regexp, a goroutine per line)", 500,
			func() { good.ParseAdexpMessage(raw) }},
		{"Deleplace good, branch performance (Go: a goroutine per line)", 1000,
			func() { dgood.ParseAdexpMessage(raw) }},
		{"Deleplace good, branch nogo (Go: no goroutines)", 1000,
			func() { dnogo.ParseAdexpMessage(raw) }},
		{"Deleplace lexer and parser, branch lexerparser (Go)", 5000,
			func() { parser.Parse(raw) }},
	}
	times := make([][]float64, len(gos))
	var tc []float64
	for r := 0; r <= rounds; r++ { // round 0 warms up
		for i, g := range gos {
			x := timeGo(g.reps, g.parse)
			if r > 0 {
				times[i] = append(times[i], x)
			}
		}
		xc := float64(C.c_time(cp, cn, 20000))
		if r > 0 {
			tc = append(tc, xc)
		}
	}
	mc := median(tc)
	fmt.Printf("%s, %d bytes; GOMAXPROCS=%d; medians of %d rounds, wall clock\n\n",
		os.Args[1], len(raw), runtime.GOMAXPROCS(0), rounds)
	fmt.Println("| parser | ns/message | vs libadexp |")
	fmt.Println("|---|---:|---:|")
	for i, g := range gos {
		m := median(times[i])
		fmt.Printf("| %s | %.0f | %.1fx |\n", g.name, m, m/mc)
	}
	fmt.Printf("| libadexp (tree + typed view) | %.0f | 1.0x |\n", mc)
}
