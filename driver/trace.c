// SPDX-License-Identifier: GPL-2.0
/* The Tonic tracepoints (include/trace/events/tonic.h) are defined here. */
#include "device.h"

#define CREATE_TRACE_POINTS
#include <trace/events/tonic.h>
