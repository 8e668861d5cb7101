package store

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/geoscan/geoscan/gen/db"
)

// The answer cache of the AI layer (its llm.Cache) over the llm_answers
// table. Answers are the JSON the AI layer encodes them to; the store keeps
// them as they come.

// GetAnswer returns the cached answer of a key for a day.
func (s *Store) GetAnswer(ctx context.Context, key string, day time.Time) ([]byte, bool, error) {
	raw, err := s.q.GetLLMAnswer(ctx, s.conn, db.GetLLMAnswerParams{Key: key, Day: UTCDay(day)})
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, fmt.Errorf("read cached answer: %w", err)
	}
	return raw, true, nil
}

// PutAnswer caches an answer, the JSON of one, for a day.
func (s *Store) PutAnswer(ctx context.Context, key string, day time.Time, engine, model string, answer []byte) error {
	return s.q.PutLLMAnswer(ctx, s.conn, db.PutLLMAnswerParams{Key: key, Day: UTCDay(day), Engine: engine, Model: model, Answer: answer})
}

// PruneAnswers deletes the answers of days before before; they can no
// longer be hit.
func (s *Store) PruneAnswers(ctx context.Context, before time.Time) (int64, error) {
	return s.q.PruneLLMAnswers(ctx, s.conn, UTCDay(before))
}
