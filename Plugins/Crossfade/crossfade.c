#include "transitiond_plugin.h"
