// Eigen 3.4 is header-only C++: this module only carries the include path pkg-config gives for
// `eigen3` (`-I/usr/include/eigen3` on Debian) to the C++ targets that depend on it. Swift never imports it.
