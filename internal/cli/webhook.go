package cli

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"os"

	"github.com/geoscan/geoscan/gen/client"
)

const webhookUsage = `Usage: geoscan webhook COMMAND [flags]

  test URL        send a signed sample callback to your receiver now and show how it answered
  verify          check your receiver's signature computation:
                  --secret whsec_… --signature v1=… (--payload TEXT | --payload-file FILE, - for stdin)

Exit code 6 when the test callback was not delivered or the signature is not valid.
`

func webhookCmd(ctx context.Context, e env, args []string) error {
	if len(args) == 0 {
		return fmt.Errorf("%w: webhook needs a command\n\n%s", errUsage, webhookUsage)
	}
	switch args[0] {
	case "test":
		return webhookTest(ctx, e, args[1:])
	case "verify":
		return webhookVerify(ctx, e, args[1:])
	case "help", "-h", "--help":
		fmt.Fprint(e.stdout, webhookUsage)
		return nil
	}
	return fmt.Errorf("%w: unknown webhook command %q\n\n%s", errUsage, args[0], webhookUsage)
}

func webhookTest(ctx context.Context, e env, args []string) error {
	fs, f := newClientFlagSet(e, "webhook test", "Usage: geoscan webhook test URL [--json]\n\nSends one sample scan.test callback to URL, signed with a fresh test secret, and shows the receiver's answer.\n")
	pos, err := parseArgs(fs, args, 1, 1)
	if err != nil {
		return err
	}
	a, err := newAPI(e, *f.json)
	if err != nil {
		return err
	}
	resp, err := a.c.TestWebhookWithResponse(ctx, client.WebhookTestRequest{URL: pos[0]})
	if err != nil {
		return err
	}
	if err := expect(resp.HTTPResponse, resp.Body, http.StatusOK); err != nil {
		return err
	}
	r := resp.JSON200
	if a.json {
		if err := a.printJSON(resp.Body); err != nil {
			return err
		}
	} else {
		tw := newTable(e.stdout)
		printf(tw, "Delivered\t%t\n", r.Delivered)
		printf(tw, "Receiver status\t%s\n", orDash(r.StatusCode))
		printf(tw, "Error\t%s\n", orDash(r.Error))
		printf(tw, "Duration\t%d ms\n", r.DurationMs)
		printf(tw, "Delivery id\t%s\n", r.DeliveryID)
		printf(tw, "Test secret\t%s\n", r.Secret)
		printf(tw, "X-GeoScan-Signature\t%s\n", r.Signature)
		printf(tw, "X-GeoScan-Timestamp\t%d\n", r.Timestamp)
		printf(tw, "webhook-signature\t%s\n", r.StandardSignature)
		printf(tw, "Body\t%s\n", r.Body)
		if err := tw.Flush(); err != nil {
			return err
		}
	}
	if !r.Delivered {
		return &exitError{code: exitWebhook, msg: sprintf("the test callback to %s was not delivered: %s", pos[0], orDash(r.Error))}
	}
	return nil
}

func webhookVerify(ctx context.Context, e env, args []string) error {
	fs, f := newClientFlagSet(e, "webhook verify", "Usage: geoscan webhook verify --secret whsec_… --signature v1=… (--payload TEXT | --payload-file FILE)\n\nAsks GeoScan whether signature is what it sends for this exact payload and secret, and if not, which common mistake explains the difference.\n")
	secret := fs.String("secret", "", "the scan's webhook_secret (whsec_…), whole")
	signature := fs.String("signature", "", "the signature to check (v1= and 64 hex digits)")
	payload := fs.String("payload", "", "the raw body text exactly as received")
	payloadFile := fs.String("payload-file", "", "read the raw body from this file (- for stdin)")
	if _, err := parseArgs(fs, args, 0, 0); err != nil {
		return err
	}
	if *secret == "" || *signature == "" || (*payload == "") == (*payloadFile == "") {
		return fmt.Errorf("%w: webhook verify needs --secret, --signature and one of --payload or --payload-file", errUsage)
	}
	body := *payload
	if *payloadFile != "" {
		var b []byte
		var err error
		if *payloadFile == "-" {
			b, err = io.ReadAll(e.stdin)
		} else {
			b, err = os.ReadFile(*payloadFile)
		}
		if err != nil {
			return fmt.Errorf("read the payload: %w", err)
		}
		body = string(b)
	}
	a, err := newAPI(e, *f.json)
	if err != nil {
		return err
	}
	resp, err := a.c.VerifyWebhookWithResponse(ctx, client.WebhookVerifyRequest{Payload: body, Signature: *signature, Secret: *secret})
	if err != nil {
		return err
	}
	if err := expect(resp.HTTPResponse, resp.Body, http.StatusOK); err != nil {
		return err
	}
	r := resp.JSON200
	if a.json {
		if err := a.printJSON(resp.Body); err != nil {
			return err
		}
	} else {
		tw := newTable(e.stdout)
		printf(tw, "Valid\t%t\n", r.Valid)
		printf(tw, "Expected signature\t%s\n", r.ExpectedSignature)
		if r.Reason != nil {
			printf(tw, "Reason\t%s\n", *r.Reason)
		}
		if r.Hint != nil {
			printf(tw, "Hint\t%s\n", *r.Hint)
		}
		if err := tw.Flush(); err != nil {
			return err
		}
	}
	if !r.Valid {
		return &exitError{code: exitWebhook, msg: "the signature is not valid"}
	}
	return nil
}
