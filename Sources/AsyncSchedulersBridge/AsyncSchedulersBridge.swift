// The RACScheduler bridge arrives with its own issue; this target is intentionally empty for now.
enum AsyncSchedulersBridgePlaceholder {}
