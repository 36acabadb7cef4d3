import { useLingui } from "@lingui/react/macro";
import { useId, useMemo } from "react";
import type { InvoiceInfo } from "../../contract/accounts.ts";
import type { Locale } from "../../contract/common.ts";
import { countryOptions } from "../../ui/countries.ts";
import { CheckboxField, TextField } from "../../ui/form.tsx";

/**
 * Who the invoices are made out to (specification section 3, invoice info): a name and a country
 * are required; a company needs its name. Controlled: the owner keeps the values.
 */
export function InvoiceInfoFields({
  value,
  onChange,
  locale,
  showErrors,
  legendHidden = false,
}: {
  value: InvoiceInfo;
  onChange: (change: Partial<InvoiceInfo>) => void;
  locale: Locale;
  /** Marks the missing required fields (after a refused confirmation). */
  showErrors: boolean;
  /** The legend is only for assistive technology where a heading already says the same. */
  legendHidden?: boolean;
}) {
  const { t } = useLingui();
  const countryId = useId();
  const countries = useMemo(() => countryOptions(locale), [locale]);
  const text = (key: keyof Omit<InvoiceInfo, "company">) => ({
    value: value[key],
    onChange: (e: React.ChangeEvent<HTMLInputElement>) => onChange({ [key]: e.target.value }),
  });
  const missingName = showErrors && value.name.trim() === "";
  const missingCountry = showErrors && !/^[A-Z]{2}$/.test(value.country);
  const missingCompany = showErrors && value.company && value.companyName.trim() === "";
  const known = countries.some((c) => c.code === value.country);
  return (
    <fieldset className="invoice-info">
      <legend className={legendHidden ? "visually-hidden" : undefined}>{t`Invoice details`}</legend>
      <div className="form-grid">
        <TextField
          label={t`Name on the invoice`}
          name="invoiceName"
          autoComplete="name"
          required
          error={missingName ? t`Enter the name the invoice is for.` : null}
          {...text("name")}
        />
        <div className={missingCountry ? "field has-error" : "field"}>
          <label htmlFor={countryId}>{t`Country`}</label>
          <select
            id={countryId}
            name="invoiceCountry"
            required
            aria-invalid={missingCountry ? true : undefined}
            aria-describedby={missingCountry ? `${countryId}-error` : undefined}
            value={value.country}
            onChange={(e) => onChange({ country: e.target.value })}
          >
            <option value="">{t`Choose a country`}</option>
            {!known && value.country ? (
              <option value={value.country}>{value.country}</option>
            ) : null}
            {countries.map((c) => (
              <option key={c.code} value={c.code}>
                {c.name}
              </option>
            ))}
          </select>
          {missingCountry ? (
            <div id={`${countryId}-error`} className="field-error">
              {t`Choose the country of the invoice.`}
            </div>
          ) : null}
        </div>
        <TextField label={t`Tax id (TIN)`} name="invoiceTin" {...text("tin")} />
        <TextField
          label={t`Address`}
          name="invoiceAddress"
          autoComplete="street-address"
          {...text("address")}
        />
        <TextField
          label={t`City`}
          name="invoiceCity"
          autoComplete="address-level2"
          {...text("city")}
        />
        <TextField
          label={t`Postal code`}
          name="invoicePostalCode"
          autoComplete="postal-code"
          {...text("postalCode")}
        />
      </div>
      <CheckboxField
        label={t`The invoice is for a company`}
        checked={value.company}
        onChange={(e) => onChange({ company: e.target.checked })}
      />
      {value.company ? (
        <TextField
          label={t`Company name`}
          name="invoiceCompanyName"
          autoComplete="organization"
          required
          error={missingCompany ? t`Enter the company's name.` : null}
          {...text("companyName")}
        />
      ) : null}
    </fieldset>
  );
}
