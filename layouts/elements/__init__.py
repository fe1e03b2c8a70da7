"""Elements as people read it: card labels, combination names, messages, the play screen."""
