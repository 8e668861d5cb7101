// Package planlimits owns the limits of the subscription plans and how an
// organization's overrides replace them.
package planlimits

// Limits are what one organization may do.
type Limits struct {
	DailyScans      int
	ActiveSchedules int
	WritePerMinute  int
	ReadPerMinute   int
}

// Defaults returns the limits of a plan; an unknown plan gets the free ones.
func Defaults(name string) Limits {
	if name == "pro" {
		return Limits{DailyScans: 200, ActiveSchedules: 50, WritePerMinute: 60, ReadPerMinute: 1200}
	}
	return Limits{DailyScans: 5, ActiveSchedules: 5, WritePerMinute: 10, ReadPerMinute: 120}
}

// Overrides are an organization's own values; nil keeps the plan's.
type Overrides struct {
	DailyScans      *int32
	ActiveSchedules *int32
	WritePerMinute  *int32
	ReadPerMinute   *int32
}

// For returns the limits in force for an organization on plan name.
func For(name string, o Overrides) Limits {
	l := Defaults(name)
	apply := func(dst *int, v *int32) {
		if v != nil {
			*dst = int(*v)
		}
	}
	apply(&l.DailyScans, o.DailyScans)
	apply(&l.ActiveSchedules, o.ActiveSchedules)
	apply(&l.WritePerMinute, o.WritePerMinute)
	apply(&l.ReadPerMinute, o.ReadPerMinute)
	return l
}
