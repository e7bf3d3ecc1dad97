// Signals arrive with their own issue; this target is intentionally empty for now.
enum AsyncSignalsPlaceholder {}
