/* The time-stamp counter for the Java driver (Tsc.java loads this with System.load): Java has no
 * way to execute rdtsc itself. One JNI function, a static native method without arguments; x86-64
 * only (the Makefile builds nothing elsewhere). Built against the JDK's include/ (jni.h). */
#include <jni.h>
#include <x86intrin.h>

JNIEXPORT jlong JNICALL Java_dev_cryptobench_driver_Tsc_rdtsc(JNIEnv *env, jclass cls) {
  (void)env;
  (void)cls;
  return (jlong)__rdtsc();
}
