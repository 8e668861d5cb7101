-- name: GetLLMAnswer :one
SELECT answer FROM llm_answers WHERE key = @key AND day = @day;

-- name: PutLLMAnswer :exec
INSERT INTO llm_answers (key, day, engine, model, answer)
VALUES (@key, @day, @engine, @model, @answer)
ON CONFLICT (key) DO UPDATE SET answer = EXCLUDED.answer, created_at = now();

-- name: PruneLLMAnswers :execrows
DELETE FROM llm_answers WHERE day < @before;
