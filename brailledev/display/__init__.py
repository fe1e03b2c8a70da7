"""Display backends: ``brlapi`` (a real BRLTTY), ``terminal`` (no display), ``memory`` (tests)."""
