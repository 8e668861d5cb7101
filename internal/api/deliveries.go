package api

import (
	"context"
	"errors"

	"github.com/geoscan/geoscan/gen/api"
	"github.com/geoscan/geoscan/internal/apierror"
	"github.com/geoscan/geoscan/internal/store"
	"github.com/geoscan/geoscan/internal/webhook"
)

// ListScanDeliveries lists a scan's callback deliveries with their attempts.
func (s *Server) ListScanDeliveries(ctx context.Context, req api.ListScanDeliveriesRequestObject) (api.ListScanDeliveriesResponseObject, error) {
	scan, err := s.loadScan(ctx, req.ScanID)
	if err != nil {
		return nil, err
	}
	pg, err := keysetPage(req.Params.Cursor, req.Params.Limit, func(after *store.Cursor, limit int) ([]store.DeliveryWithAttempts, error) {
		return s.d.Store.ListDeliveries(ctx, scan.ID, after, limit)
	}, toAPIDelivery)
	if err != nil {
		return nil, err
	}
	return api.ListScanDeliveries200JSONResponse{Body: api.WebhookDeliveryList{Data: pg.Data, HasMore: pg.HasMore, NextCursor: pg.NextCursor}}, nil
}

// RedeliverScanWebhook queues the final event of a finished scan again.
func (s *Server) RedeliverScanWebhook(ctx context.Context, req api.RedeliverScanWebhookRequestObject) (api.RedeliverScanWebhookResponseObject, error) {
	p, err := principal(ctx)
	if err != nil {
		return nil, err
	}
	var d store.WebhookDelivery
	err = s.d.Store.InTx(ctx, func(tx *store.Store) error {
		d, err = s.d.Deliveries.Redeliver(ctx, tx, p.OrgID, req.ScanID)
		return err
	})
	switch {
	case errors.Is(err, store.ErrNotFound):
		return nil, scanNotFound(req.ScanID)
	case errors.Is(err, webhook.ErrScanNotFinished):
		return nil, apierror.New(apierror.CodeScanNotFinished, "scan_id",
			"Scan %s has not finished; its callback is sent when it completes or fails.", req.ScanID)
	case errors.Is(err, webhook.ErrNoCallback):
		return nil, apierror.New(apierror.CodeCallbackNotSet, "scan_id",
			"Scan %s was created without a callback_url, so there is nothing to redeliver.", req.ScanID)
	case err != nil:
		return nil, err
	}
	return api.RedeliverScanWebhook202JSONResponse{Body: toAPIDelivery(store.DeliveryWithAttempts{WebhookDelivery: d})}, nil
}

// toAPIDelivery maps a delivery; its payload and the scan's secret stay out.
func toAPIDelivery(d store.DeliveryWithAttempts) api.WebhookDelivery {
	out := api.WebhookDelivery{
		ID: d.ID, Event: api.WebhookDeliveryEvent(d.Event), URL: d.URL,
		Status: api.WebhookDeliveryStatus(d.Status), AttemptCount: int(d.AttemptCount),
		NextAttemptAt: utcPtr(d.NextAttemptAt), LastError: d.LastError, LastStatusCode: intPtr(d.LastStatusCode),
		CreatedAt: d.CreatedAt.UTC(), CompletedAt: utcPtr(d.CompletedAt),
		Attempts: make([]api.WebhookDeliveryAttempt, 0, len(d.Attempts)),
	}
	if d.Status != store.DeliveryPending {
		out.NextAttemptAt = nil
	}
	if d.ScanID != nil {
		out.ScanID = *d.ScanID
	}
	for _, a := range d.Attempts {
		out.Attempts = append(out.Attempts, api.WebhookDeliveryAttempt{
			Attempt: int(a.Attempt), StartedAt: a.StartedAt.UTC(), DurationMs: int(a.DurationMs),
			StatusCode: intPtr(a.StatusCode), Error: a.Error,
		})
	}
	return out
}
