import { Trans, useLingui } from "@lingui/react/macro";
import { Link } from "react-router-dom";
import { pathFor } from "../../app/paths.ts";
import { EducationLink } from "../../app/layouts/default-layout.tsx";
import type { ScreenProps } from "../../app/route-screen.tsx";
import { useServices } from "../../app/services.tsx";

/**
 * The education section on the home page (hollypedia in ht, the programme in tt): what it holds,
 * and the link that opens it over the page on the edition's default tab. In tt it is the main
 * entry, as in the header: the hero's first (primary) action opens it, and this comes right below.
 */
function EducationEntry() {
  const { brand } = useServices();
  const { t } = useLingui();
  const tt = brand.edition === "tt";
  return (
    <section className="card home-education" aria-labelledby="home-education-title">
      <h2 id="home-education-title">
        {tt ? t`Learn with the programme` : t`Learn as you go with Hollypedia`}
      </h2>
      <p>
        <Trans>
          Courses with short quizzes, a dictionary of every term and figure, video tutorials of each
          screen and case studies of real markets, in plain words or with the formulas.
        </Trans>
      </p>
      <EducationLink className="button secondary">
        {tt ? t`Open the programme` : t`Open Hollypedia`}
      </EducationLink>
    </section>
  );
}

export default function HomeScreen({ locale }: ScreenProps) {
  const { brand } = useServices();
  const brandName = brand.name;
  const educationFirst = brand.edition === "tt";
  const { t } = useLingui();
  const features = [
    { title: t`Build`, text: t`Answer three questions and get a portfolio built for you.` },
    {
      title: t`Understand`,
      text: t`See its value at risk, diversification, and where its risk comes from.`,
    },
    { title: t`Stress-test`, text: t`Shock the markets, replay real crises and backtest it.` },
    { title: t`Optimise`, text: t`Lower its risk within the limits you choose.` },
    { title: t`Simulate`, text: t`Invest month by month and see the range of outcomes.` },
    { title: t`Compete`, text: t`Pick stocks in the banana challenge and beat the monkey.` },
  ];
  return (
    <div className="home">
      <section className="hero" aria-labelledby="home-title">
        <h1 id="home-title">
          <Trans>Invest with your eyes open</Trans>
        </h1>
        <p className="lead">
          <Trans>
            {brandName} builds a portfolio from three questions and shows you its risk in plain
            words and clear charts.
          </Trans>
        </p>
        <div className="hero-actions">
          {educationFirst ? (
            <EducationLink className="button primary large">{t`Start the programme`}</EducationLink>
          ) : null}
          <Link
            className={educationFirst ? "button secondary large" : "button primary large"}
            to={pathFor("create-q1", locale)}
          >
            <Trans>Create your portfolio</Trans>
          </Link>
          <Link className="button ghost large" to={pathFor("markets", locale)}>
            <Trans>Follow the markets</Trans>
          </Link>
        </div>
      </section>
      {educationFirst ? <EducationEntry /> : null}
      <section aria-labelledby="features-title">
        <h2 id="features-title" className="visually-hidden">
          <Trans>What you can do</Trans>
        </h2>
        <ul className="feature-grid">
          {features.map((f) => (
            <li key={f.title} className="card">
              <h3>{f.title}</h3>
              <p>{f.text}</p>
            </li>
          ))}
        </ul>
      </section>
      {educationFirst ? null : <EducationEntry />}
    </div>
  );
}
