"""cryptobench: verified, statistically honest cryptography benchmarks."""

__version__ = "0.1.0"
PROTOCOL_VERSION = 7  # 7: TLS 1.3 handshake cells and the interop commands (docs/protocol.md)
OLDEST_PROTOCOL = 1  # older drivers are still spoken to: versions 2 and 3 only added operations
RESULT_SCHEMA_VERSION = 16
