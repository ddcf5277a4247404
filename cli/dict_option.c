/* --dictionary FILE for adexp-parse and adexp-write (dict_option.h). */
#include <stdio.h>

#include "dict_option.h"

int cli_load_dictionary(const char *prog, adexp_dictionary **dict, const char *path)
{
    adexp_dict_error err;
    adexp_dictionary *d = adexp_dict_load_file(*dict, path, &err);
    if (!d) {
        if (err.line)
            fprintf(stderr, "%s: %s:%u:%u: %s\n", prog, path, err.line, err.column,
                    err.message);
        else
            fprintf(stderr, "%s: %s: %s\n", prog, path, err.message);
        fprintf(stderr, "Try '%s --help'.\n", prog);
        return 2;
    }
    adexp_dict_free(*dict);
    *dict = d;
    return -1;
}
