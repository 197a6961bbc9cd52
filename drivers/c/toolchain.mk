# The C family's toolchain defaults, shared by drivers/c/Makefile and plugins/c/Makefile: gcc and
# g++ unless CC / CXX are set (make's own default, cc, is not taken as a choice), -O2, and the
# tools both call. Every setting can be overridden on the command line or in the environment.
ifeq ($(origin CC),default)
CC = gcc
endif
ifeq ($(origin CXX),default)
CXX = g++
endif
CFLAGS ?= -O2
CXXFLAGS ?= -O2
CLANG_FORMAT ?= clang-format
PKG_CONFIG ?= pkg-config
