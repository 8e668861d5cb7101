package api_test

import (
	"context"
	"fmt"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/geoscan/geoscan/gen/api"
	"github.com/geoscan/geoscan/gen/client"
)

func TestScheduleCreate(t *testing.T) {
	t.Parallel()
	h := start(t)
	ctx := context.Background()

	t.Run("CreatedThenExisting", func(t *testing.T) {
		t.Parallel()
		org := h.NewOrg(t, "free", true)
		resp, err := org.Client.CreateScheduleWithResponse(ctx, nil, client.ScheduleCreateRequest{URL: "https://Example.com"})
		require.NoError(t, err)
		require.Equal(t, http.StatusCreated, resp.StatusCode(), "body: %s", resp.Body)
		s := resp.JSON201
		require.Equal(t, "https://example.com/", s.URL)
		require.Equal(t, client.ScheduleFrequencyQuarterly, s.Frequency, "quarterly by default")
		require.True(t, s.NotifyEmail, "notify_email defaults to true")
		require.True(t, s.Active)
		require.Equal(t, "example.com", s.BrandName)
		require.NotNil(t, s.NextRunAt)
		require.WithinDuration(t, time.Now().AddDate(0, 3, 0), *s.NextRunAt, time.Minute)

		again, err := org.Client.CreateScheduleWithResponse(ctx, nil, client.ScheduleCreateRequest{URL: "https://example.com/", Frequency: ptr(client.ScheduleCreateRequestFrequencyMonthly)})
		require.NoError(t, err)
		require.Equal(t, http.StatusOK, again.StatusCode(), "body: %s", again.Body)
		require.Equal(t, s.ID, again.JSON200.ID)
		require.Equal(t, client.ScheduleFrequencyQuarterly, again.JSON200.Frequency, "returned unchanged")
	})

	t.Run("Options", func(t *testing.T) {
		t.Parallel()
		org := h.NewOrg(t, "free", true)
		r := h.Do(t, "POST", "/api/v1/schedules", org.Key, map[string]any{"url": "https://www.example.com/", "frequency": "monthly", "notify_email": false, "brand_name": "Example Inc"})
		require.Equal(t, http.StatusCreated, r.Status, "body: %s", r.Body)
		var s api.Schedule
		r.JSON(t, &s)
		require.Equal(t, api.ScheduleFrequencyMonthly, s.Frequency)
		require.False(t, s.NotifyEmail)
		require.Equal(t, "Example Inc", s.BrandName)
		require.WithinDuration(t, time.Now().AddDate(0, 1, 0), *s.NextRunAt, time.Minute)
	})

	t.Run("Rejections", func(t *testing.T) {
		t.Parallel()
		org := h.NewOrg(t, "free", true)
		post := func(body any) func(int, string, string) {
			r := h.Do(t, "POST", "/api/v1/schedules", org.Key, body)
			return func(status int, code, param string) { r.RequireError(t, status, code, param) }
		}
		post(map[string]any{"url": "https://example.com/about"})(422, "not_homepage", "url")
		post(map[string]any{"url": "https://example.com/?utm=1"})(422, "not_homepage", "url")
		post(map[string]any{"url": "https://example.com/", "frequency": "weekly"})(422, "invalid_frequency", "frequency")
		post(map[string]any{"url": "https://example.com/", "frequency": 12})(422, "invalid_frequency", "frequency")
		post(map[string]any{"url": "http://example.com/"})(422, "invalid_url", "url")
		post(map[string]any{"url": "https://127.0.0.1/"})(422, "invalid_url", "url")
		post(map[string]any{"frequency": "monthly"})(422, "missing_parameter", "url")
		post(map[string]any{"url": "https://example.com/", "notify_email": "yes"})(422, "invalid_parameter", "notify_email")
		post(map[string]any{"url": "https://example.com/", "active": true})(422, "unknown_parameter", "active")
	})
}

func TestScheduleLimit(t *testing.T) {
	t.Parallel()
	ctx := context.Background()

	hosts := map[string][]string{}
	for i := range 60 {
		hosts[fmt.Sprintf("site%d.example.com", i)] = []string{"93.184.216.34"}
	}
	h := start(t, startOptions(hosts))

	create := func(t *testing.T, key string, i int) (int, api.Schedule, string) {
		r := h.Do(t, "POST", "/api/v1/schedules", key, map[string]any{"url": fmt.Sprintf("https://site%d.example.com/", i)})
		var s api.Schedule
		if r.Status < 300 {
			r.JSON(t, &s)
			return r.Status, s, ""
		}
		return r.Status, s, r.Error(t).Error.Code
	}

	t.Run("FreePlanFive", func(t *testing.T) {
		t.Parallel()
		org := h.NewOrg(t, "free", true)
		var first api.Schedule
		for i := range 5 {
			status, s, _ := create(t, org.Key, i)
			require.Equal(t, http.StatusCreated, status)
			if i == 0 {
				first = s
			}
		}
		status, _, code := create(t, org.Key, 5)
		require.Equal(t, http.StatusUnprocessableEntity, status)
		require.Equal(t, "schedule_limit_reached", code)

		// Soft delete frees a slot; the schedule stays readable, inactive.
		del, err := org.Client.DeleteScheduleWithResponse(ctx, first.ID)
		require.NoError(t, err)
		require.Equal(t, http.StatusOK, del.StatusCode())
		require.False(t, del.JSON200.Active)
		require.Nil(t, del.JSON200.NextRunAt)
		status, _, _ = create(t, org.Key, 5)
		require.Equal(t, http.StatusCreated, status)

		// Reactivating now would exceed the limit.
		h.Do(t, "PATCH", "/api/v1/schedules/"+first.ID.String(), org.Key, map[string]any{"active": true}).
			RequireError(t, 422, "schedule_limit_reached", "")
		// Re-creating the inactive one returns it unchanged (200), using no slot.
		status, s, _ := create(t, org.Key, 0)
		require.Equal(t, http.StatusOK, status)
		require.Equal(t, first.ID, s.ID)
		require.False(t, s.Active)
	})

	t.Run("ConcurrentCreatesNeverOvershoot", func(t *testing.T) {
		t.Parallel()
		org := h.NewOrg(t, "free", true)
		roomyRateLimits(t, h, org)
		var (
			wg       sync.WaitGroup
			mu       sync.Mutex
			statuses = map[int]int{}
		)
		for i := range 12 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				status, _, _ := create(t, org.Key, 20+i)
				mu.Lock()
				statuses[status]++
				mu.Unlock()
			}()
		}
		wg.Wait()
		require.Equal(t, map[int]int{201: 5, 422: 7}, statuses)
	})

	t.Run("OrgOverride", func(t *testing.T) {
		t.Parallel()
		org := h.NewOrg(t, "free", true)
		_, err := h.Store.Pool().Exec(ctx, "UPDATE organizations SET schedule_limit_override = 2 WHERE id = $1", org.ID)
		require.NoError(t, err)
		for i := range 2 {
			status, _, _ := create(t, org.Key, 10+i)
			require.Equal(t, http.StatusCreated, status)
		}
		_, _, code := create(t, org.Key, 12)
		require.Equal(t, "schedule_limit_reached", code)
	})

	t.Run("ProPlanFifty", func(t *testing.T) {
		t.Parallel()
		org := h.NewOrg(t, "pro", true)
		for i := range 50 {
			status, _, code := create(t, org.Key, i)
			require.Equal(t, http.StatusCreated, status, code)
		}
		_, _, code := create(t, org.Key, 50)
		require.Equal(t, "schedule_limit_reached", code)
	})
}

func TestScheduleReadUpdateIsolation(t *testing.T) {
	t.Parallel()
	h := start(t)
	ctx := context.Background()
	a := h.NewOrg(t, "free", true)
	b := h.NewOrg(t, "free", true)

	resp, err := a.Client.CreateScheduleWithResponse(ctx, nil, client.ScheduleCreateRequest{URL: "https://example.com/"})
	require.NoError(t, err)
	id := resp.JSON201.ID
	path := "/api/v1/schedules/" + id.String()

	got, err := a.Client.GetScheduleWithResponse(ctx, id)
	require.NoError(t, err)
	require.Equal(t, http.StatusOK, got.StatusCode())

	upd, err := a.Client.UpdateScheduleWithResponse(ctx, id, client.ScheduleUpdateRequest{Frequency: ptr(client.ScheduleUpdateRequestFrequencyMonthly), NotifyEmail: ptr(false)})
	require.NoError(t, err)
	require.Equal(t, http.StatusOK, upd.StatusCode(), "body: %s", upd.Body)
	require.Equal(t, client.ScheduleFrequencyMonthly, upd.JSON200.Frequency)
	require.False(t, upd.JSON200.NotifyEmail)
	require.WithinDuration(t, time.Now().AddDate(0, 1, 0), *upd.JSON200.NextRunAt, time.Minute)

	off := h.Do(t, "PATCH", path, a.Key, map[string]any{"active": false})
	require.Equal(t, http.StatusOK, off.Status)
	on := h.Do(t, "PATCH", path, a.Key, map[string]any{"active": true})
	require.Equal(t, http.StatusOK, on.Status, "body: %s", on.Body)

	h.Do(t, "PATCH", path, a.Key, map[string]any{}).RequireError(t, 422, "invalid_parameter", "")
	h.Do(t, "PATCH", path, a.Key, map[string]any{"frequency": "daily"}).RequireError(t, 422, "invalid_frequency", "frequency")
	h.Do(t, "PATCH", path, a.Key, map[string]any{"url": "https://x.example.com/"}).RequireError(t, 422, "unknown_parameter", "url")

	for _, m := range []string{"GET", "DELETE"} {
		h.Do(t, m, path, b.Key, nil).RequireError(t, 404, "schedule_not_found", "schedule_id")
		h.Do(t, m, "/api/v1/schedules/"+uuid.NewString(), a.Key, nil).RequireError(t, 404, "schedule_not_found", "schedule_id")
	}
	h.Do(t, "PATCH", path, b.Key, map[string]any{"active": false}).RequireError(t, 404, "schedule_not_found", "schedule_id")
	// A malformed id is the request's mistake, not a missing schedule.
	h.Do(t, "GET", "/api/v1/schedules/12", a.Key, nil).RequireError(t, 422, "invalid_parameter", "schedule_id")

	list, err := b.Client.ListSchedulesWithResponse(ctx, nil)
	require.NoError(t, err)
	require.Empty(t, list.JSON200.Data)

	// The stranger changed nothing.
	got, err = a.Client.GetScheduleWithResponse(ctx, id)
	require.NoError(t, err)
	require.True(t, got.JSON200.Active)
}

func TestScheduleList(t *testing.T) {
	t.Parallel()
	hosts := map[string][]string{}
	for i := range 7 {
		hosts[fmt.Sprintf("site%d.example.com", i)] = []string{"93.184.216.34"}
	}
	h := start(t, startOptions(hosts))
	ctx := context.Background()
	org := h.NewOrg(t, "pro", true)
	var ids []uuid.UUID
	for i := range 7 {
		resp, err := org.Client.CreateScheduleWithResponse(ctx, nil, client.ScheduleCreateRequest{URL: fmt.Sprintf("https://site%d.example.com/", i)})
		require.NoError(t, err)
		ids = append(ids, resp.JSON201.ID)
	}
	_, err := org.Client.DeleteScheduleWithResponse(ctx, ids[0])
	require.NoError(t, err)

	page1, err := org.Client.ListSchedulesWithResponse(ctx, &client.ListSchedulesParams{Limit: ptr(4)})
	require.NoError(t, err)
	require.Len(t, page1.JSON200.Data, 4)
	require.True(t, page1.JSON200.HasMore)
	page2, err := org.Client.ListSchedulesWithResponse(ctx, &client.ListSchedulesParams{Limit: ptr(4), Cursor: page1.JSON200.NextCursor})
	require.NoError(t, err)
	require.Len(t, page2.JSON200.Data, 3)
	require.False(t, page2.JSON200.HasMore)
	require.Equal(t, ids[6], page1.JSON200.Data[0].ID)
	require.Equal(t, ids[0], page2.JSON200.Data[2].ID)

	active, err := org.Client.ListSchedulesWithResponse(ctx, &client.ListSchedulesParams{Active: ptr(false)})
	require.NoError(t, err)
	require.Len(t, active.JSON200.Data, 1)
	require.Equal(t, ids[0], active.JSON200.Data[0].ID)
}

func TestScheduleNotifyToAndOwner(t *testing.T) {
	t.Parallel()
	h := start(t)
	ctx := context.Background()
	org := h.NewOrg(t, "free", true)
	roomyRateLimits(t, h, org)
	m, err := h.Store.CreateMember(ctx, org.ID, "dana@example.com", "Dana", "member")
	require.NoError(t, err)
	memberKey, _ := h.NewMemberKey(t, org.ID, &m.ID, "dana")

	// Created with a member's key: the member owns it; no address yet.
	r := h.Do(t, "POST", "/api/v1/schedules", memberKey, map[string]any{"url": "https://example.com/"})
	require.Equal(t, http.StatusCreated, r.Status, "body: %s", r.Body)
	var s api.Schedule
	r.JSON(t, &s)
	require.Nil(t, s.NotifyTo)
	stored, err := h.Store.GetSchedule(ctx, org.ID, s.ID)
	require.NoError(t, err)
	require.Equal(t, m.ID, *stored.OwnerMemberID)

	// Created with the organization's key: no owner member.
	r = h.Do(t, "POST", "/api/v1/schedules", org.Key, map[string]any{"url": "https://www.example.com/", "notify_to": "seo@example.com"})
	require.Equal(t, http.StatusCreated, r.Status, "body: %s", r.Body)
	var s2 api.Schedule
	r.JSON(t, &s2)
	require.Equal(t, "seo@example.com", *s2.NotifyTo)
	stored, err = h.Store.GetSchedule(ctx, org.ID, s2.ID)
	require.NoError(t, err)
	require.Nil(t, stored.OwnerMemberID)

	path := "/api/v1/schedules/" + s.ID.String()
	r = h.Do(t, "PATCH", path, org.Key, map[string]any{"notify_to": "team@example.com"})
	require.Equal(t, http.StatusOK, r.Status, "body: %s", r.Body)
	r.JSON(t, &s)
	require.Equal(t, "team@example.com", *s.NotifyTo)
	r = h.Do(t, "PATCH", path, org.Key, map[string]any{"frequency": "monthly"})
	r.JSON(t, &s)
	require.Equal(t, "team@example.com", *s.NotifyTo, "left out, kept")
	r = h.Do(t, "PATCH", path, org.Key, map[string]any{"notify_to": nil})
	require.Equal(t, http.StatusOK, r.Status, "body: %s", r.Body)
	r.JSON(t, &s)
	require.Nil(t, s.NotifyTo, "null removes it")

	for _, bad := range []any{"Team <team@example.com>", "team@example.com\r\nBcc: x@example.com", "team", "a@b.com,c@d.com", 12} {
		code := "invalid_parameter"
		h.Do(t, "PATCH", path, org.Key, map[string]any{"notify_to": bad}).RequireError(t, 422, code, "notify_to")
		h.Do(t, "POST", "/api/v1/schedules", org.Key, map[string]any{"url": "https://shop.example.co.uk/", "notify_to": bad}).RequireError(t, 422, code, "notify_to")
	}
}
