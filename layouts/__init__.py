"""Words, screens, card faces and score pads: everything a person reads, per language."""
