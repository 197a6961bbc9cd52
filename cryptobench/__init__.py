"""cryptobench: verified, statistically honest cryptography benchmarks."""

__version__ = "0.1.0"
PROTOCOL_VERSION = 1
RESULT_SCHEMA_VERSION = 1
