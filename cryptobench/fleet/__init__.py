"""Many machines, one store: moving runs between stores, the job queue and its agents, tables across
machines, history with change points, the published site, and the PostgreSQL roles (docs/fleet.md)."""
