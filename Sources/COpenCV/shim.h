// OpenCV 4 is C++: this module only carries the include path and libraries pkg-config gives for `opencv4`
// (`-I/usr/include/opencv4` on Debian) to the C++ targets that depend on it. Swift never imports it.
