/* web_assets.h - the page `sow serve` serves, compiled into the program:
 * src/cli/embed.py turns src/cli/web/ into web_assets.c at build time. */
#ifndef SOW_CLI_WEB_ASSETS_H
#define SOW_CLI_WEB_ASSETS_H

#include <stddef.h>

typedef struct web_asset {
    const char *path;      /* "/index.html" */
    const char *type;      /* its Content-Type */
    const unsigned char *data;
    size_t size;
} web_asset;

/* Every file, ended by an entry with path NULL. */
extern const web_asset web_assets[];

#endif
