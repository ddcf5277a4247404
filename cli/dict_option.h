/* --dictionary FILE for the command-line programs: one way to load an
 * extension and to report a broken one. */
#ifndef ADEXP_CLI_DICT_OPTION_H
#define ADEXP_CLI_DICT_OPTION_H

#include "adexp.h"

/* Loads path on top of *dict (NULL: the built-in dictionary) and puts the
 * result in *dict. Returns -1 (go on), or 2 after printing
 * "PROG: FILE:LINE:COL: message" and the --help hint (a usage error). */
int cli_load_dictionary(const char *prog, adexp_dictionary **dict, const char *path);

#endif
