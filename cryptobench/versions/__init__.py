"""Any released version of a provider: `python:cryptography@41.0.7`.

`spec` says what a user may write after the `@` and resolves it against a list of releases;
`registries` asks each provider's own package registry for that list; `families` knows, per
provider, how to build its driver against one release in an isolated environment and how to
read the version its library reports; `cache` keeps those builds by (family, version, toolchain)
and lists and prunes them (docs/versions.md).
"""
