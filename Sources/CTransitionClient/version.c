/* version.c: the library's version and the names of its status codes. */
#include "transitiond_client.h"

int td_client_version(void) { return TD_CLIENT_VERSION_MAJOR * 1000 + TD_CLIENT_VERSION_MINOR; }

const char *td_status_name(int status) {
    switch (status) {
    case TD_OK: return "TD_OK";
    case TD_AGAIN: return "TD_AGAIN";
    case TD_SKIPPED: return "TD_SKIPPED";
    case TD_ERR_ARGUMENT: return "TD_ERR_ARGUMENT";
    case TD_ERR_NO_MEMORY: return "TD_ERR_NO_MEMORY";
    case TD_ERR_CONNECT: return "TD_ERR_CONNECT";
    case TD_ERR_CLOSED: return "TD_ERR_CLOSED";
    case TD_ERR_IO: return "TD_ERR_IO";
    case TD_ERR_TIMEOUT: return "TD_ERR_TIMEOUT";
    case TD_ERR_MALFORMED: return "TD_ERR_MALFORMED";
    case TD_ERR_LIMIT: return "TD_ERR_LIMIT";
    case TD_ERR_SEQ_GAP: return "TD_ERR_SEQ_GAP";
    case TD_ERR_NO_KEY_FRAME: return "TD_ERR_NO_KEY_FRAME";
    case TD_ERR_REPLY: return "TD_ERR_REPLY";
    case TD_ERR_STATE: return "TD_ERR_STATE";
    default: return "TD_UNKNOWN";
    }
}
