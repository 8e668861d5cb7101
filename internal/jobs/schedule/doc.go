// Package schedule owns recurring scans: the calendar arithmetic of monthly
// and quarterly cadences, what creating, changing and reactivating a
// schedule does to its next run, and the scheduler — a periodic River job
// that creates the scans of due schedules exactly once however many
// processes run it.
package schedule
