package ratelimit

import "context"

// ChargeFunc counts the request of ctx against the cost class g of its
// organization. Its error is the answer to a refused request.
type ChargeFunc func(ctx context.Context, g Group) error

type chargeKey struct{}

// WithCharge returns ctx with the function Charge calls.
func WithCharge(ctx context.Context, f ChargeFunc) context.Context {
	return context.WithValue(ctx, chargeKey{}, f)
}

// Charge counts the request of ctx against the cost class g. A handler
// calls it once it knows the request needs the costly work, before doing
// it; a request that does not (a PDF already rendered) is not charged.
// Without rate limits (none were put in ctx) everything is allowed.
func Charge(ctx context.Context, g Group) error {
	f, _ := ctx.Value(chargeKey{}).(ChargeFunc)
	if f == nil {
		return nil
	}
	return f(ctx, g)
}
