/* serve_off.c - `sow serve` in a build without libmicrohttpd: the command
 * exists and says how to get it, rather than vanishing or pretending. */
#include "cli.h"

bool cli_serve_available(void)
{
    return false;
}

int cmd_serve(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    cli_fail("serve: this sow was built without libmicrohttpd: install libmicrohttpd-dev "
             "(scripts/setup does) and rebuild (meson setup --reconfigure build)");
}
