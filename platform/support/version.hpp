#pragma once
#ifndef HETERO_VERSION_STRING
#define HETERO_VERSION_STRING "0.1.0"
#endif
