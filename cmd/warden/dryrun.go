package main

import (
	"context"

	"github.com/agentwarden/warden"
	"github.com/agentwarden/warden/approvals"
)

// dryApprovals answers every ask as pending under the id "dry-run" and files nothing: the offline tools
// (check, policy test, guard, config validate) show that a call would wait for a person without touching
// any store.
type dryApprovals struct{}

func (dryApprovals) Resolve(_ context.Context, a warden.ApprovalAsk) (warden.Approval, error) {
	digest, err := approvals.Bind(a.Run.Principal(), a.Call.Name, a.Call.Arguments, a.Policy)
	if err != nil {
		return warden.Approval{}, err
	}
	return warden.Approval{ID: "dry-run", Status: warden.ApprovalPending, Digest: digest}, nil
}
