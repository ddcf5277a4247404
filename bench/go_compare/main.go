// go_compare: libadexp against the two public Go ADEXP parsers of
// teivah/golang-good-code-bad-code (packages good and bad), timed by turns
// in one process on the same message (see ../go_compare.sh, which builds
// it with cgo against a build directory's libadexp.a).
//
//	go_compare MESSAGE_FILE [ROUNDS]
//
// Each round parses the message N times with each parser in turn (bad,
// good, libadexp); the medians of the rounds' ns per message are printed
// with the ratios. Wall-clock time for all three: the Go parsers spread a
// message's lines over goroutines, so their CPU time is not one thread's.
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

// The three parsers agree on the fields both Go parsers read.
func check(v *C.adexp_view, g good.Message, b bad.Message) error {
	if v == nil {
		return fmt.Errorf("libadexp did not parse the message")
	}
	type row struct {
		name    string
		c, g, b string
	}
	rows := []row{
		{"TITLE", slice(v.title), g.Title, b.Title},
		{"ARCID", slice(v.arcid), g.Arcid, b.Arcid},
		{"ADEP", slice(v.adep), g.Adep, b.Adep},
		{"ADES", slice(v.ades), g.Ades, b.Ades},
		{"EETFIR count", strconv.Itoa(int(v.eetfir.n)), strconv.Itoa(len(g.Eetfir)), strconv.Itoa(len(b.Eetfir))},
		{"SPEED count", strconv.Itoa(int(v.speed.n)), strconv.Itoa(len(g.Speed)), strconv.Itoa(len(b.Speed))},
		{"RTEPTS points", strconv.Itoa(int(v.n_rtepts)), strconv.Itoa(len(g.RoutePoints)), strconv.Itoa(len(b.RoutePoints))},
		{"GEO count", strconv.Itoa(int(v.n_geo)), strconv.Itoa(len(g.Geo)), strconv.Itoa(len(b.Geo))},
		{"ESTDATA count", strconv.Itoa(int(v.n_estdata)), strconv.Itoa(len(g.Estdata)), strconv.Itoa(len(b.Estdata))},
	}
	for _, r := range rows {
		if r.c != r.g || r.c != r.b {
			return fmt.Errorf("%s: libadexp %q, good %q, bad %q", r.name, r.c, r.g, r.b)
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

	g, _ := good.ParseAdexpMessage(raw)
	b, _ := bad.ParseAdexpMessage(str)
	if err := check(C.c_parse(cp, cn), g, b); err != nil {
		fmt.Fprintln(os.Stderr, "the parsers disagree:", err)
		os.Exit(1)
	}

	var tb, tg, tc []float64
	for r := 0; r <= rounds; r++ { // round 0 warms up
		xb := timeGo(200, func() { bad.ParseAdexpMessage(str) })
		xg := timeGo(500, func() { good.ParseAdexpMessage(raw) })
		xc := float64(C.c_time(cp, cn, 20000))
		if r > 0 {
			tb, tg, tc = append(tb, xb), append(tg, xg), append(tc, xc)
		}
	}
	mb, mg, mc := median(tb), median(tg), median(tc)
	fmt.Printf("%s, %d bytes; GOMAXPROCS=%d; medians of %d rounds, wall clock\n\n",
		os.Args[1], len(raw), runtime.GOMAXPROCS(0), rounds)
	fmt.Println("| parser | ns/message | vs libadexp |")
	fmt.Println("|---|---:|---:|")
	fmt.Printf("| teivah bad (Go: strings, regexp, a goroutine per line) | %.0f | %.1fx |\n", mb, mb/mc)
	fmt.Printf("| teivah good (Go: []byte, regexp, a goroutine per line) | %.0f | %.1fx |\n", mg, mg/mc)
	fmt.Printf("| libadexp (tree + typed view) | %.0f | 1.0x |\n", mc)
}
