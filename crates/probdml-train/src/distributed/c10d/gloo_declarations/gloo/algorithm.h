// Declarations only: see ../README.md. ProcessGroupGloo.hpp names no algorithm type itself.
#pragma once
#include "context.h"
