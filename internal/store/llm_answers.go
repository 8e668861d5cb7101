package store

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/geoscan/geoscan/gen/db"
	"github.com/geoscan/geoscan/internal/audit/llm"
)

// The answer cache of the AI layer: llm.Cache over the llm_answers table.

// GetAnswer returns the cached answer of a key for a day.
func (s *Store) GetAnswer(ctx context.Context, key string, day time.Time) (llm.Answer, bool, error) {
	raw, err := s.q.GetLLMAnswer(ctx, s.conn, db.GetLLMAnswerParams{Key: key, Day: UTCDay(day)})
	if errors.Is(err, pgx.ErrNoRows) {
		return llm.Answer{}, false, nil
	}
	if err != nil {
		return llm.Answer{}, false, fmt.Errorf("read cached answer: %w", err)
	}
	var a llm.Answer
	if err := json.Unmarshal(raw, &a); err != nil {
		return llm.Answer{}, false, fmt.Errorf("decode cached answer: %w", err)
	}
	return a, true, nil
}

// PutAnswer caches an answer for a day.
func (s *Store) PutAnswer(ctx context.Context, key string, day time.Time, engine, model string, a llm.Answer) error {
	raw, err := json.Marshal(a)
	if err != nil {
		return err
	}
	return s.q.PutLLMAnswer(ctx, s.conn, db.PutLLMAnswerParams{Key: key, Day: UTCDay(day), Engine: engine, Model: model, Answer: raw})
}

// PruneAnswers deletes the answers of days before before; they can no
// longer be hit.
func (s *Store) PruneAnswers(ctx context.Context, before time.Time) (int64, error) {
	return s.q.PruneLLMAnswers(ctx, s.conn, UTCDay(before))
}
