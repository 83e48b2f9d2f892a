/* common/version.c - the library's version at run time (sow/version.h). */
#include "sow/version.h"

const char *sow_version(void)
{
    return SOW_VERSION_STRING;
}

unsigned sow_version_number(void)
{
    return SOW_VERSION_NUMBER;
}
