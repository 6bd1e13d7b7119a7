import { describe, expect, it, vi } from "vitest";
import { action as sendMail } from "~/routes/api.user.sendMail";
import { expectDocumented } from "../support/api-contract";

// The mail server refusing the email: the only refusal of a code request besides its limits.
vi.mock("~/models/account.server", async (original) => ({
  ...(await original<typeof import("~/models/account.server")>()),
  requestPasswordReset: async () => ({ ok: false, error: "errors.mailFailed" }),
}));

describe("POST /api/user/sendMail when the email cannot be sent", () => {
  it("answers the documented 503 with the translated message, never a 500", async () => {
    const request = new Request("http://localhost/api/user/sendMail", {
      method: "POST",
      body: JSON.stringify({ email: "someone@mail.test", type: "reset" }),
      headers: {
        "Content-Type": "application/json",
        "Accept-Language": "pl",
        "X-Forwarded-For": "192.0.2.40",
      },
    });
    const response = await sendMail({ request, params: {}, context: {} });
    const body = await response.json();
    expectDocumented("POST", request.url, response.status, body);
    expect({ status: response.status, ...body }).toEqual({
      status: 503,
      code: 503,
      msg: "Nie udało się wysłać wiadomości e-mail. Spróbuj ponownie.",
      data: null,
    });
  });
});
