/* What the command-line programs do so that their output never destroys
 * data: descriptors 0 to 2 kept from files opened later, a closed standard
 * output refused, and an output that is one of the inputs refused before
 * it is truncated. One module for adexp-parse and adexp-write. */
#ifndef ADEXP_CLI_OUTPUT_GUARD_H
#define ADEXP_CLI_OUTPUT_GUARD_H

/* First thing in main: each of descriptors 0 to 2 that the caller closed
 * is opened on /dev/null, so that no file opened later gets its number (an
 * -o file as 2 would take the diagnostics). A closed 0 or 1 is opened the
 * wrong way round (0 for writing, 1 for reading): using it still fails with
 * EBADF, as it would have closed. A closed 2 drops the diagnostics, as
 * 2>&- asks. */
void cli_guard_std_fds(void);

/* Whether standard output can take the output; if not, prints "PROG:
 * standard output is closed" (or not open for writing) and returns 0. */
int cli_stdout_writable(const char *prog);

/* path opened for the output, not truncated yet (cli_claim_output does it
 * once it is known not to be an input). Returns the descriptor, or -1
 * after printing PROG: PATH: why. */
int cli_open_output(const char *prog, const char *path);

/* The first of names[0..n) ("-": standard input) that is the regular file
 * open on fd (same device and inode), or NULL. */
const char *cli_find_input(int fd, char *const *names, int n);

/* The output on fd, named output (NULL: standard output), against input,
 * the input it was found to be (NULL: none): refused (exit status 2, said
 * on stderr), or claimed: a named regular file is truncated (0; 1 if it
 * cannot be). Standard output is never truncated (>> appends). */
int cli_claim_output(const char *prog, int fd, const char *output, const char *input);

/* After --help or --version: 0, or 1 after saying why standard output did
 * not take the text. */
int cli_flush_stdout(const char *prog);

#endif
