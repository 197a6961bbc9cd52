"""cryptobench: verified, statistically honest cryptography benchmarks."""

__version__ = "0.1.0"
PROTOCOL_VERSION = 2
OLDEST_PROTOCOL = 1  # version-1 drivers are still spoken to: v2 only added public-key operations
RESULT_SCHEMA_VERSION = 1
