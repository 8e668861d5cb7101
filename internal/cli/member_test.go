package cli

import (
	"context"
	"strings"
	"testing"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"

	"github.com/geoscan/geoscan/internal/store"
	"github.com/geoscan/geoscan/internal/testing/pgtest"
	"github.com/geoscan/geoscan/internal/web/auth"
)

func TestMembersAndMemberKeys(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	vars := map[string]string{"DATABASE_URL": pgtest.URL()}
	st := store.New(pgtest.Pool(t))

	code, out, errOut := runCLI(t, vars, "org", "create", "--name", "Members")
	require.Equal(t, 0, code, errOut)
	orgID := strings.TrimSpace(out)

	code, out, errOut = runCLI(t, vars, "member", "add", "--org", orgID, "--email", "Ada@example.com", "--name", "Ada", "--role", "owner")
	require.Equal(t, 0, code, errOut)
	adaID := uuid.MustParse(strings.TrimSpace(out))
	code, _, errOut = runCLI(t, vars, "member", "add", "--org", orgID, "--email", "ada@EXAMPLE.com")
	require.Equal(t, 1, code)
	require.Contains(t, errOut, "already has a member")
	code, out, errOut = runCLI(t, vars, "member", "add", "--org", orgID, "--email", "bob@example.com")
	require.Equal(t, 0, code, errOut)
	bobID := uuid.MustParse(strings.TrimSpace(out))

	code, out, errOut = runCLI(t, vars, "member", "list", "--org", orgID)
	require.Equal(t, 0, code, errOut)
	require.Regexp(t, adaID.String()+`\s+Ada@example.com\s+Ada\s+owner`, out)
	require.Regexp(t, bobID.String()+`\s+bob@example.com\s+member`, out)

	// A key of a member: requests made with it are that member's.
	code, out, errOut = runCLI(t, vars, "key", "create", "--org", orgID, "--member", "BOB@example.com")
	require.Equal(t, 0, code, errOut)
	key := strings.TrimSpace(out)
	p, err := st.LookupKey(ctx, auth.HashKey(key))
	require.NoError(t, err)
	require.Equal(t, bobID, *p.MemberID)

	code, out, errOut = runCLI(t, vars, "key", "create", "--org", orgID)
	require.Equal(t, 0, code, errOut)
	p, err = st.LookupKey(ctx, auth.HashKey(strings.TrimSpace(out)))
	require.NoError(t, err)
	require.Nil(t, p.MemberID, "a key without --member belongs to the organization alone")

	owner, err := st.GetOwnerMember(ctx, uuid.MustParse(orgID))
	require.NoError(t, err)
	require.Equal(t, adaID, owner.ID)

	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"key", "create", "--org", orgID, "--member", "carol@example.com"}, 1, "has no member carol@example.com"},
		{[]string{"member", "add", "--org", orgID, "--email", "Carol <carol@example.com>"}, 2, "must be an email address"},
		{[]string{"member", "add", "--org", orgID, "--email", "carol@example.com", "--role", "admin"}, 2, "owner or member"},
		{[]string{"member", "add", "--org", "nope", "--email", "carol@example.com"}, 2, "--org must be"},
		{[]string{"member", "add", "--org", "5b0e7c1e-8d4f-4c7a-9a51-0f3c2d9e6b11", "--email", "carol@example.com"}, 1, "no organization"},
		{[]string{"member", "list", "--org", "5b0e7c1e-8d4f-4c7a-9a51-0f3c2d9e6b11"}, 1, "no organization"},
		{[]string{"member"}, 2, "add or list"},
	} {
		code, _, errOut := runCLI(t, vars, tc.args...)
		require.Equal(t, tc.code, code, "%v: %s", tc.args, errOut)
		require.Contains(t, errOut, tc.want, "%v", tc.args)
	}
}
