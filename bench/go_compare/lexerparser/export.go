// export.go is copied by ../../go_compare.sh into a copy of Deleplace's
// lexerparser package, whose lexer and parser are not exported: Parse is
// their own test's lex + parse, under a name the comparison can call.
package parser

// Parse lexes and parses one ADEXP message.
func Parse(b []byte) (*Message, error) {
	return parse(lex(b))
}
