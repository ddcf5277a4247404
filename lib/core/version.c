/* The library's version at run time. */
#include "adexp.h"

const char *adexp_version(void)
{
    return ADEXP_VERSION;
}
