package cli

import (
	"context"
	"fmt"
)

func migrate(ctx context.Context, e env, args []string) error {
	fs := newFlagSet(e, "migrate")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	_, closeFn, err := openStore(ctx, e)
	if err != nil {
		return err
	}
	closeFn()
	fmt.Fprintln(e.stdout, "migrations applied")
	return nil
}
