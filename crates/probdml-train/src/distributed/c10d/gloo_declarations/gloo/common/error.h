// Declarations only: see ../../README.md. ProcessGroupGloo.hpp names no error type itself.
#pragma once
