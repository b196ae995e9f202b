#include "transitiond_client.h"

int td_client_version(void) { return TD_CLIENT_VERSION_MAJOR * 1000 + TD_CLIENT_VERSION_MINOR; }
