// Package mail owns the emails GeoScan sends: the notification of a
// scheduled scan's outcome to the schedule's owner, built from the scan,
// the previous scan of the schedule and the triage dossier; who receives
// it; and the durable job that sends it over SMTP with retries or keeps it
// in the outbox when no SMTP server is configured.
package mail
