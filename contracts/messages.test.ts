import { describe, expect, it } from "vitest";
import { z } from "zod";
import { messages, QUOTE_MAX } from "./messages.ts";
import {
  emailField,
  fieldErrors,
  integerField,
  phoneField,
  requiredText,
  urlField,
  alphaSpacesField,
  minLengthText,
} from "./validation.ts";

describe("the docs/product.md §5 message catalogue, word for word", () => {
  it.each([
    [messages.required("Name"), "Name cannot be blank"],
    [messages.email("bob@"), "bob@ is not a valid email address"],
    [messages.minLength("Password", 8), "Password must be at least 8 characters long"],
    [messages.integer("Offers"), "Offers must be an integer"],
    [messages.minValue("Offers", 1), "Offers must be greater than or equal to 1"],
    [messages.alpha("Name"), "Name can only contain alphabets"],
    [messages.alphaSpaces("Name"), "Name can only contain alphabets and spaces"],
    [messages.regex("x!"), "x! is not valid"],
    [messages.phoneNumber("12ab"), "12ab is not a valid phone number"],
    [messages.url("nope"), "nope is not a valid url"],
    [messages.confirmPassword(), "The password confirmation does not match"],
    [messages.imageFile(), "Uploaded file is not a valid image"],
    [messages.dimensions(200, 100), "Invalid file dimensions. Expected: 200px X 100px"],
    [messages.fileExtension(["jpg", "png"]), "Invalid file extension. Expected: jpg, png"],
    [messages.fileSize(500), "File size must not exceed 500 KB"],
  ])("%s", (actual, expected) => expect(actual).toBe(expected));

  it("quotes at most QUOTE_MAX characters of a value, so no answer carries a long input back", () => {
    const long = "A".repeat(3000);
    for (const m of [messages.email(long), messages.regex(long), messages.phoneNumber(long), messages.url(long)]) {
      expect(m.startsWith(`${"A".repeat(QUOTE_MAX)}… is not`)).toBe(true);
    }
  });
});

describe("field rules speak those messages", () => {
  const form = z.object({
    name: alphaSpacesField("Name"),
    email: emailField(),
    password: minLengthText("Password", 8),
    offers: integerField("Number of offers", 1),
    phone: phoneField(),
    website: urlField("Website"),
    company: requiredText("Company"),
  });
  const errorsFor = (input: Record<string, unknown>) => {
    const r = form.safeParse(input);
    return r.success ? {} : fieldErrors(r.error);
  };

  it("reports each bad field with its message", () => {
    expect(
      errorsFor({
        name: "R2D2",
        email: "bob@",
        password: "short",
        offers: "1.5",
        phone: "12ab",
        website: "nope",
        company: "  ",
      }),
    ).toEqual({
      name: "Name can only contain alphabets and spaces",
      email: "bob@ is not a valid email address",
      password: "Password must be at least 8 characters long",
      offers: "Number of offers must be an integer",
      phone: "12ab is not a valid phone number",
      website: "nope is not a valid url",
      company: "Company cannot be blank",
    });
    expect(errorsFor({ name: "", email: "", password: "", offers: "0", website: "", company: "x" })).toMatchObject({
      name: "Name cannot be blank",
      email: "Email cannot be blank",
      password: "Password cannot be blank",
      offers: "Number of offers must be greater than or equal to 1",
    });
  });

  it("takes real names in any language, and refuses digits and symbols", () => {
    for (const name of ["Seán O'Brien", "Jean-Luc Picard", "J. R. Smith", "Zoë D’Arcy", "Müller", "李小龍", "Ngũgĩ"])
      expect(errorsFor({ name }).name, name).toBeUndefined();
    for (const name of ["R2D2", "-Ann", "Ann <b>", "O'Brien!", "'quoted'", "ann@example.com"])
      expect(errorsFor({ name }).name, name).toBe("Name can only contain alphabets and spaces");
  });

  it("strips whitespace from phones and treats an empty phone as absent", () => {
    const ok = {
      name: "Ann Lee",
      email: "ann@example.com",
      password: "long enough",
      offers: "3",
      website: "example.com",
      company: "Acme",
    };
    expect(form.parse({ ...ok, phone: " +1 555 123 4567 " }).phone).toBe("+15551234567");
    expect(form.parse({ ...ok, phone: "   " }).phone).toBeUndefined();
    expect(form.parse(ok).offers).toBe(3);
  });
});
